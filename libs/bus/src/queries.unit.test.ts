import { belief, memory, orchestrator, retention, trust, uncertainty } from '@hearth/proto';
import type { Bus } from './bus.js';
import { queryOwner, queryRpc, serveQueries, serveSomeQueries } from './queries.js';

type Handler = (request: Uint8Array) => Promise<Uint8Array>;

/** A bus that records what is served and asked, without NATS. */
function recordingBus() {
  const served = new Map<string, Handler>();
  const asked: { service: string; name: string; timeoutMs: number | undefined }[] = [];
  const bus = {
    serveQuery: async (service: string, name: string, handler: Handler) => {
      served.set(`${service}.${name}`, handler);
    },
    query: async (service: string, name: string, request: Uint8Array, timeoutMs?: number) => {
      asked.push({ service, name, timeoutMs });
      const handler = served.get(`${service}.${name}`);
      if (!handler) throw new Error(`nobody serves ${service}.${name}`);
      return handler(request);
    },
  } as unknown as Bus;
  return { bus, served, asked };
}

describe('query services from proto/', () => {
  it('each proto service is served by the service its package names (belief → belief-graph)', () => {
    expect(queryOwner(memory.MemoryQueriesDefinition.fullName)).toBe('memory');
    expect(queryOwner(orchestrator.OrchestratorQueriesDefinition.fullName)).toBe('orchestrator');
    expect(queryOwner(retention.RetentionQueriesDefinition.fullName)).toBe('retention');
    expect(queryOwner(belief.BeliefQueriesDefinition.fullName)).toBe('belief-graph');
    expect(queryOwner(uncertainty.UncertaintyQueriesDefinition.fullName)).toBe('uncertainty');
    expect(queryOwner(trust.TrustQueriesDefinition.fullName)).toBe('trust');
  });

  it('refuses a proto service no Hearth service owns', () => {
    expect(() => queryOwner('hearth.billing.v1.BillingQueries')).toThrow(/no Hearth service owns/);
    expect(() => queryOwner('other.memory.v1.MemoryQueries')).toThrow(/no Hearth service owns/);
  });

  it('given every handler, when a generated client asks, then the owner answers on the rpc name with the decoded request', async () => {
    const { bus, served, asked } = recordingBus();
    await serveQueries(bus, trust.TrustQueriesDefinition, {
      GetTrust: async (req) => trust.GetTrustResponse.fromPartial({ actors: [{ actor: req.userId }] }),
    });
    expect([...served.keys()]).toEqual(['trust.GetTrust']);
    const client = new trust.TrustQueriesClientImpl(queryRpc(bus, { timeoutMs: 1_234 }));
    const answer = await client.GetTrust({ userId: 'u-1' });
    expect(answer.actors.map((a) => a.actor)).toEqual(['u-1']);
    expect(asked).toEqual([{ service: 'trust', name: 'GetTrust', timeoutMs: 1_234 }]);
  });

  it('refuses to serve a service with a handler missing, and serves only some for a stand-in', async () => {
    const { bus, served } = recordingBus();
    const find = async () => ({ memories: [] });
    await expect(serveQueries(bus, memory.MemoryQueriesDefinition, { FindMemories: find } as never)).rejects.toThrow(/no handler for SearchMemories/);
    await serveSomeQueries(bus, memory.MemoryQueriesDefinition, { FindMemories: find });
    expect([...served.keys()]).toContain('memory.FindMemories');
    expect([...served.keys()]).not.toContain('memory.SearchMemories');
  });

  it('answers a request that does not decode with an error naming it, without calling the handler', async () => {
    const { bus, served } = recordingBus();
    let called = false;
    await serveSomeQueries(bus, orchestrator.OrchestratorQueriesDefinition, {
      GetPersona: async () => {
        called = true;
        return { found: false, persona: undefined };
      },
    });
    await expect(served.get('orchestrator.GetPersona')!(Uint8Array.of(0x0a, 0xff))).rejects.toThrow('GetPersonaRequest does not decode');
    expect(called).toBe(false);
  });
});
