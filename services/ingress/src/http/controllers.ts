import { Readable } from 'node:stream';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiHttpException } from '@hearth/host';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { INGRESS } from '../config.js';
import type { AdminReader } from '../app/admin-access.js';
import { BELIEF_HOLDERS, isBeliefHolder, type BeliefHolder } from '../app/beliefs-view.js';
import type { IngressApp } from '../app/ingress-app.js';
import { onboardingAnswersSchema, optionalTimezone } from '../users/answers.js';
import { appOpenCommand, appOpenIdOf, appOpenSchema } from '../users/app-open.js';
import { controlsPatchSchema } from '../users/controls.js';
import { adminOf, api, principalOf, type IngressAuth } from './auth.js';
import type { Principal } from '../auth/tokens.js';
import { DocsController } from './docs.controller.js';
import { INGRESS_APP, INGRESS_AUTH } from './tokens.js';
import { checkText, parse } from './validation.js';

const uuid = z.uuid({ message: 'must be a uuid' });

function uuidParam(name: string, value: string): string {
  checkText({ [name]: value });
  const r = uuid.safeParse(value);
  if (!r.success) throw new ApiHttpException(422, 'INVALID_FIELDS', `${name} must be a uuid`, { fields: [{ field: name, message: 'must be a uuid' }] });
  return r.data.toLowerCase();
}

const messageBody = z.strictObject({
  message_id: uuid,
  text: z
    .string()
    .max(INGRESS.maxMessageChars, { message: `at most ${INGRESS.maxMessageChars} characters` })
    .refine((t) => t.trim().length > 0, { message: 'must not be empty' }),
  client_timezone: optionalTimezone,
  client_locale: z.string().max(35).optional(),
});

const devTokenBody = z.strictObject({
  user_id: uuid.optional(),
  roles: z.array(z.enum(['admin'])).optional(),
});

const clockBody = z.strictObject({
  advance_seconds: z.number().finite().nonnegative().max(10 * 365 * 24 * 3600),
});

@Controller('v1')
export class MeController {
  constructor(
    @Inject(INGRESS_APP) private readonly app: IngressApp,
    @Inject(INGRESS_AUTH) private readonly auth: IngressAuth,
  ) {}

  @Post('me')
  @HttpCode(200)
  async createMe(@Req() req: FastifyRequest) {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.createMe(userId));
  }

  @Get('me')
  async getMe(@Req() req: FastifyRequest) {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.profile(userId));
  }

  /** Erasure (API.md): 202 with the erasure, the same one on a repeat. */
  @Delete('me')
  @HttpCode(202)
  async eraseMe(@Req() req: FastifyRequest) {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.eraseMe(userId));
  }

  @Get('me/relationship')
  async relationship(@Req() req: FastifyRequest) {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.relationship(userId));
  }

  @Get('me/memories')
  async memories(@Req() req: FastifyRequest, @Query('status') status?: string) {
    const { userId } = await principalOf(this.auth, req);
    checkText({ status });
    if (status !== undefined && status !== 'all' && status !== 'active') {
      throw new ApiHttpException(422, 'INVALID_FIELDS', 'status must be all or active', { fields: [{ field: 'status', message: 'must be all or active' }] });
    }
    return api(() => this.app.memories(userId, status === 'all'));
  }

  @Delete('me/memories/:memoryId')
  async forgetMemory(@Req() req: FastifyRequest, @Param('memoryId') memoryId: string) {
    const { userId } = await principalOf(this.auth, req);
    const id = uuidParam('memory_id', memoryId);
    return api(() => this.app.forgetMemory(userId, id));
  }

  @Get('me/controls')
  async controls(@Req() req: FastifyRequest) {
    const { userId } = await principalOf(this.auth, req);
    return api(() => this.app.controls(userId));
  }

  @Patch('me/controls')
  async patchControls(@Req() req: FastifyRequest, @Body() body: unknown) {
    const { userId } = await principalOf(this.auth, req);
    const patch = parse(controlsPatchSchema, body);
    return api(() => this.app.patchControls(userId, patch));
  }

  @Post('me/app-opens')
  @HttpCode(202)
  async appOpened(@Req() req: FastifyRequest, @Body() body: unknown) {
    const { userId } = await principalOf(this.auth, req);
    // No body is an open that no notification caused.
    const b = parse(appOpenSchema, body ?? {});
    const cmd = appOpenCommand(appOpenIdOf(userId, b, () => crypto.randomUUID()), b);
    return api(() => this.app.openApp(userId, cmd));
  }

  /**
   * Everything held about the caller, written as it is read. Errors before the
   * first byte are error answers; one after it closes the connection, so a cut
   * document is never valid JSON.
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
  async onboarding(@Req() req: FastifyRequest, @Body() body: unknown) {
    const { userId } = await principalOf(this.auth, req);
    const answers = parse(onboardingAnswersSchema, body);
    return api(() => this.app.answerOnboarding(userId, answers));
  }
}

@Controller('v1/conversations')
export class ConversationsController {
  constructor(
    @Inject(INGRESS_APP) private readonly app: IngressApp,
    @Inject(INGRESS_AUTH) private readonly auth: IngressAuth,
  ) {}

  @Post(':conversationId/messages')
  @HttpCode(200)
  async post(@Req() req: FastifyRequest, @Param('conversationId') conversationId: string, @Body() body: unknown) {
    const { userId } = await principalOf(this.auth, req);
    const cid = uuidParam('conversation_id', conversationId);
    const msg = parse(messageBody, body);
    return api(() =>
      this.app.postMessage(userId, {
        messageId: msg.message_id.toLowerCase(),
        conversationId: cid,
        text: msg.text,
        clientTimezone: msg.client_timezone,
        clientLocale: msg.client_locale,
      }),
    );
  }

  @Get(':conversationId/messages')
  async history(
    @Req() req: FastifyRequest,
    @Param('conversationId') conversationId: string,
    @Query('limit') limitRaw?: string,
    @Query('before') before?: string,
  ) {
    const { userId } = await principalOf(this.auth, req);
    const cid = uuidParam('conversation_id', conversationId);
    checkText({ limit: limitRaw, before });
    if (before !== undefined && typeof before !== 'string') {
      throw new ApiHttpException(422, 'INVALID_FIELDS', 'before must be given once', { fields: [{ field: 'before', message: 'must be given once' }] });
    }
    const limit = limitRaw === undefined ? INGRESS.historyDefaultLimit : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > INGRESS.historyMaxLimit) {
      throw new ApiHttpException(422, 'INVALID_FIELDS', `limit must be an integer from 1 to ${INGRESS.historyMaxLimit}`, {
        fields: [{ field: 'limit', message: 'out of range' }],
      });
    }
    return api(async () => ({ messages: await this.app.history(userId, cid, limit, before) }));
  }
}

@Controller('v1/admin')
export class AdminController {
  constructor(
    @Inject(INGRESS_APP) private readonly app: IngressApp,
    @Inject(INGRESS_AUTH) private readonly auth: IngressAuth,
  ) {}

  // Each read of a user's data below leaves an AdminAccessed in that user's trail.
  @Get('users/:userId/timeline')
  async timeline(@Req() req: FastifyRequest, @Param('userId') userId: string) {
    const admin = await adminOf(this.auth, req);
    const id = uuidParam('user_id', userId);
    return api(async () => ({ events: await this.app.timeline(id, reader(admin, 'GET /v1/admin/users/{user_id}/timeline')) }));
  }

  @Get('users/:userId/retention')
  async retention(@Req() req: FastifyRequest, @Param('userId') userId: string) {
    const admin = await adminOf(this.auth, req);
    const id = uuidParam('user_id', userId);
    return api(() => this.app.retention(id, reader(admin, 'GET /v1/admin/users/{user_id}/retention')));
  }

  @Get('users/:userId/beliefs')
  async beliefs(@Req() req: FastifyRequest, @Param('userId') userId: string, @Query('holder') holder?: string | string[]) {
    const admin = await adminOf(this.auth, req);
    const id = uuidParam('user_id', userId);
    const h = holderParam(holder);
    return api(() => this.app.beliefs(id, h, reader(admin, 'GET /v1/admin/users/{user_id}/beliefs')));
  }

  @Get('users/:userId/uncertainties')
  async uncertainties(@Req() req: FastifyRequest, @Param('userId') userId: string) {
    const admin = await adminOf(this.auth, req);
    const id = uuidParam('user_id', userId);
    return api(() => this.app.uncertainties(id, reader(admin, 'GET /v1/admin/users/{user_id}/uncertainties')));
  }

  @Get('users/:userId/trust')
  async trust(@Req() req: FastifyRequest, @Param('userId') userId: string) {
    const admin = await adminOf(this.auth, req);
    const id = uuidParam('user_id', userId);
    return api(() => this.app.trust(id, reader(admin, 'GET /v1/admin/users/{user_id}/trust')));
  }

  @Get('turns/:messageId')
  async turn(@Req() req: FastifyRequest, @Param('messageId') messageId: string) {
    const admin = await adminOf(this.auth, req);
    const id = uuidParam('message_id', messageId);
    return api(() => this.app.turnTrail(id, reader(admin, 'GET /v1/admin/turns/{message_id}')));
  }

  @Get('dead-letters')
  async deadLetters(@Req() req: FastifyRequest) {
    const admin = await adminOf(this.auth, req);
    return api(async () => ({ dead_letters: await this.app.deadLetters(reader(admin, 'GET /v1/admin/dead-letters')) }));
  }

  @Post('dead-letters/:eventId/redrive')
  @HttpCode(200)
  async redrive(@Req() req: FastifyRequest, @Param('eventId') eventId: string) {
    await adminOf(this.auth, req);
    // Event ids are uuids or derived ids (letters, digits, - _ : .); nothing else can name one.
    if (!/^[A-Za-z0-9_.:-]{1,200}$/.test(eventId)) {
      throw new ApiHttpException(422, 'INVALID_FIELDS', 'event_id is not an event id', { fields: [{ field: 'event_id', message: 'not an event id' }] });
    }
    return api(() => this.app.redriveDeadLetter(eventId));
  }
}

/**
 * The `holder` query parameter: user or companion, undefined (both) when absent.
 * Any other value, or the parameter given twice, is a 400: the holder is a fixed
 * choice, not free text, so no value outside it is read at all.
 */
function holderParam(value: unknown): BeliefHolder | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && isBeliefHolder(value)) return value;
  const message = `must be ${BELIEF_HOLDERS.join(' or ')}, given at most once (absent: both)`;
  throw new ApiHttpException(422, 'INVALID_FIELDS', `holder ${message}`, { fields: [{ field: 'holder', message }] });
}

function reader(admin: Principal, route: string): AdminReader {
  return { adminId: admin.userId, route };
}

@Controller('v1/dev')
export class DevController {
  constructor(@Inject(INGRESS_AUTH) private readonly auth: IngressAuth) {}

  private devOnly(): void {
    if (!this.auth.devMode) throw new ApiHttpException(404, 'NOT_FOUND', 'not found');
  }

  @Post('token')
  @HttpCode(200)
  async token(@Body() body: unknown) {
    this.devOnly();
    const b = parse(devTokenBody, body ?? {});
    const userId = (b.user_id ?? crypto.randomUUID()).toLowerCase();
    return { token: await this.auth.signDevToken({ userId, roles: b.roles ?? [] }), user_id: userId };
  }

  // The clock moves every service's time: any valid token, not anyone who can reach the port.
  @Get('clock')
  async clock(@Req() req: FastifyRequest) {
    this.devOnly();
    await principalOf(this.auth, req);
    return { now: this.auth.now().toISOString() };
  }

  @Post('clock')
  @HttpCode(200)
  async advance(@Req() req: FastifyRequest, @Body() body: unknown) {
    this.devOnly();
    await principalOf(this.auth, req);
    const b = parse(clockBody, body);
    if (!this.auth.advanceClock) throw new ApiHttpException(404, 'NOT_FOUND', 'no virtual clock in this mode');
    return { now: (await this.auth.advanceClock(b.advance_seconds)).toISOString() };
  }
}

/** Every controller of the ingress HTTP surface, in one list for the module. */
export const INGRESS_CONTROLLERS = [MeController, ConversationsController, AdminController, DevController, DocsController];
