import { Readable } from 'node:stream';
import { Body, Controller, Delete, Get, HttpCode, Inject, Patch, Post, Put, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiHttpException } from '@hearth/host';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminReader } from '../app/admin-access.js';
import type { IngressApp } from '../app/ingress-app.js';
import { appOpenCommand, appOpenIdOf } from '../users/app-open.js';
import { adminOf, api, principalOf, type IngressAuth } from './auth.js';
import type { Principal } from '../auth/tokens.js';
import { DocsController } from './docs.controller.js';
import { ROUTES, type OkBody } from './routes.js';
import { INGRESS_APP, INGRESS_AUTH } from './tokens.js';
import { requestOf } from './validation.js';

// Each handler validates with its route's schemas (`requestOf`) and returns its route's
// `ok` body (`OkBody`): routes.ts is what openapi.ts documents.

@Controller('v1')
export class MeController {
  constructor(
    @Inject(INGRESS_APP) private readonly app: IngressApp,
    @Inject(INGRESS_AUTH) private readonly auth: IngressAuth,
  ) {}

  @Post('me')
  @HttpCode(200)
  async createMe(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.createMe>> {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.createMe(userId));
  }

  @Get('me')
  async getMe(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getMe>> {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.profile(userId));
  }

  /** Erasure (API.md): 202 with the erasure, the same one on a repeat. */
  @Delete('me')
  @HttpCode(202)
  async eraseMe(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.eraseMe>> {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.eraseMe(userId));
  }

  @Get('me/relationship')
  async relationship(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getMyRelationship>> {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.relationship(userId));
  }

  @Get('me/memories')
  async memories(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.listMyMemories>> {
    const { userId } = await principalOf(this.auth, req);
    const { query } = requestOf(ROUTES.listMyMemories, req);
    return api(() => this.app.memories(userId, query.status === 'all'));
  }

  @Delete('me/memories/:memory_id')
  async forgetMemory(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.forgetMyMemory>> {
    const { userId } = await principalOf(this.auth, req);
    const { params } = requestOf(ROUTES.forgetMyMemory, req);
    return api(() => this.app.forgetMemory(userId, params.memory_id.toLowerCase()));
  }

  @Get('me/controls')
  async controls(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getMyControls>> {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.controls(userId));
  }

  @Patch('me/controls')
  async patchControls(@Req() req: FastifyRequest, @Body() body: unknown): Promise<OkBody<typeof ROUTES.patchMyControls>> {
    const { userId } = await principalOf(this.auth, req);
    const { body: patch } = requestOf(ROUTES.patchMyControls, req, body);
    return api(() => this.app.patchControls(userId, patch));
  }

  @Post('me/app-opens')
  @HttpCode(202)
  async appOpened(@Req() req: FastifyRequest, @Body() body: unknown): Promise<OkBody<typeof ROUTES.recordAppOpen>> {
    const { userId } = await principalOf(this.auth, req);
    // No body is an open that no notification caused.
    const { body: b } = requestOf(ROUTES.recordAppOpen, req, body);
    const cmd = appOpenCommand(appOpenIdOf(userId, b, () => crypto.randomUUID()), b);
    return api(() => this.app.openApp(userId, cmd));
  }

  /**
   * Everything held about the caller, written as it is read. Errors before the
   * first byte are error answers; one after it closes the connection, so a cut
   * document is never valid JSON. The body is ROUTES.exportMe's, streamed.
   */
  @Get('me/export')
  async export(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const { userId } = await principalOf(this.auth, req);
    const chunks = await api(() => this.app.exportData(userId));
    reply.header('cache-control', 'no-store');
    return new StreamableFile(Readable.from(chunks, { objectMode: false }), {
      type: 'application/json; charset=utf-8',
      disposition: `attachment; filename="hearth-export-${userId}.json"`,
    });
  }

  @Put('me/onboarding')
  async onboarding(@Req() req: FastifyRequest, @Body() body: unknown): Promise<OkBody<typeof ROUTES.answerOnboarding>> {
    const { userId } = await principalOf(this.auth, req);
    const { body: answers } = requestOf(ROUTES.answerOnboarding, req, body);
    return api(() => this.app.answerOnboarding(userId, answers));
  }
}

@Controller('v1/conversations')
export class ConversationsController {
  constructor(
    @Inject(INGRESS_APP) private readonly app: IngressApp,
    @Inject(INGRESS_AUTH) private readonly auth: IngressAuth,
  ) {}

  @Post(':conversation_id/messages')
  @HttpCode(200)
  async post(@Req() req: FastifyRequest, @Body() body: unknown): Promise<OkBody<typeof ROUTES.postMessage>> {
    const { userId } = await principalOf(this.auth, req);
    const { params, body: msg } = requestOf(ROUTES.postMessage, req, body);
    return api(() =>
      this.app.postMessage(userId, {
        messageId: msg.message_id.toLowerCase(),
        conversationId: params.conversation_id.toLowerCase(),
        text: msg.text,
        clientTimezone: msg.client_timezone,
        clientLocale: msg.client_locale,
      }),
    );
  }

  @Get(':conversation_id/messages')
  async history(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.listMessages>> {
    const { userId } = await principalOf(this.auth, req);
    const { params, query } = requestOf(ROUTES.listMessages, req);
    return api(async () => ({ messages: await this.app.history(userId, params.conversation_id.toLowerCase(), query.limit, query.before) }));
  }
}

@Controller('v1/admin')
export class AdminController {
  constructor(
    @Inject(INGRESS_APP) private readonly app: IngressApp,
    @Inject(INGRESS_AUTH) private readonly auth: IngressAuth,
  ) {}

  // Each read of a user's data below leaves an AdminAccessed in that user's trail.
  @Get('users/:user_id/timeline')
  async timeline(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getUserTimeline>> {
    const admin = await adminOf(this.auth, req);
    const { params } = requestOf(ROUTES.getUserTimeline, req);
    return api(async () => ({ events: await this.app.timeline(params.user_id.toLowerCase(), reader(admin, ROUTES.getUserTimeline)) }));
  }

  @Get('users/:user_id/retention')
  async retention(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getUserRetention>> {
    const admin = await adminOf(this.auth, req);
    const { params } = requestOf(ROUTES.getUserRetention, req);
    return api(() => this.app.retention(params.user_id.toLowerCase(), reader(admin, ROUTES.getUserRetention)));
  }

  @Get('users/:user_id/beliefs')
  async beliefs(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getUserBeliefs>> {
    const admin = await adminOf(this.auth, req);
    const { params, query } = requestOf(ROUTES.getUserBeliefs, req);
    return api(() => this.app.beliefs(params.user_id.toLowerCase(), query.holder, reader(admin, ROUTES.getUserBeliefs)));
  }

  @Get('users/:user_id/uncertainties')
  async uncertainties(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getUserUncertainties>> {
    const admin = await adminOf(this.auth, req);
    const { params } = requestOf(ROUTES.getUserUncertainties, req);
    return api(() => this.app.uncertainties(params.user_id.toLowerCase(), reader(admin, ROUTES.getUserUncertainties)));
  }

  @Get('users/:user_id/trust')
  async trust(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getUserTrust>> {
    const admin = await adminOf(this.auth, req);
    const { params } = requestOf(ROUTES.getUserTrust, req);
    return api(() => this.app.trust(params.user_id.toLowerCase(), reader(admin, ROUTES.getUserTrust)));
  }

  @Get('turns/:message_id')
  async turn(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getTurnTrail>> {
    const admin = await adminOf(this.auth, req);
    const { params } = requestOf(ROUTES.getTurnTrail, req);
    return api(() => this.app.turnTrail(params.message_id.toLowerCase(), reader(admin, ROUTES.getTurnTrail)));
  }

  @Get('dead-letters')
  async deadLetters(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.listDeadLetters>> {
    const admin = await adminOf(this.auth, req);
    return api(async () => ({ dead_letters: await this.app.deadLetters(reader(admin, ROUTES.listDeadLetters)) }));
  }

  @Post('dead-letters/:event_id/redrive')
  @HttpCode(200)
  async redrive(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.redriveDeadLetter>> {
    await adminOf(this.auth, req);
    const { params } = requestOf(ROUTES.redriveDeadLetter, req);
    return api(() => this.app.redriveDeadLetter(params.event_id));
  }
}

/** The admin and the route template of a read, as the access trail records them (`GET /v1/admin/users/{user_id}/timeline`). */
function reader(admin: Principal, route: { method: string; path: string }): AdminReader {
  return { adminId: admin.userId, route: `${route.method.toUpperCase()} ${route.path}` };
}

@Controller('v1/dev')
export class DevController {
  constructor(@Inject(INGRESS_AUTH) private readonly auth: IngressAuth) {}

  private devOnly(): void {
    if (!this.auth.devMode) throw new ApiHttpException(404, 'NOT_FOUND', 'not found');
  }

  @Post('token')
  @HttpCode(200)
  async token(@Req() req: FastifyRequest, @Body() body: unknown): Promise<OkBody<typeof ROUTES.createDevToken>> {
    this.devOnly();
    const { body: b } = requestOf(ROUTES.createDevToken, req, body);
    const userId = (b.user_id ?? crypto.randomUUID()).toLowerCase();
    return { token: await this.auth.signDevToken({ userId, roles: b.roles ?? [] }), user_id: userId };
  }

  // The clock moves every service's time: any valid token, not anyone who can reach the port.
  @Get('clock')
  async clock(@Req() req: FastifyRequest): Promise<OkBody<typeof ROUTES.getDevClock>> {
    this.devOnly();
    await principalOf(this.auth, req);
    return { now: this.auth.now().toISOString() };
  }

  @Post('clock')
  @HttpCode(200)
  async advance(@Req() req: FastifyRequest, @Body() body: unknown): Promise<OkBody<typeof ROUTES.advanceDevClock>> {
    this.devOnly();
    await principalOf(this.auth, req);
    const { body: b } = requestOf(ROUTES.advanceDevClock, req, body);
    if (!this.auth.advanceClock) throw new ApiHttpException(404, 'NOT_FOUND', 'no virtual clock in this mode');
    return { now: (await this.auth.advanceClock(b.advance_seconds)).toISOString() };
  }
}

/** Every controller of the ingress HTTP surface, in one list for the module. */
export const INGRESS_CONTROLLERS = [MeController, ConversationsController, AdminController, DevController, DocsController];
