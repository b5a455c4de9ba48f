import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Observable } from 'rxjs';

const tracer = trace.getTracer('hearth-http');

const headerGetter = {
  get: (h: Record<string, string | string[] | undefined>, k: string) => {
    const v = h[k];
    return Array.isArray(v) ? v[0] : v;
  },
  keys: (h: Record<string, string | string[] | undefined>) => Object.keys(h),
};

/**
 * One server span per HTTP request, continuing a client's `traceparent` when
 * sent: the events a request appends carry its trace, so a turn is one trace
 * across every NATS hop.
 */
@Injectable()
export class TracingInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<{ method: string; url: string; headers: Record<string, string | string[] | undefined>; routeOptions?: { url?: string } }>();
    const route = req.routeOptions?.url ?? req.url.split('?')[0];
    const parent = propagation.extract(context.active(), req.headers, headerGetter);
    return new Observable((subscriber) => {
      tracer.startActiveSpan(`${req.method} ${route}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'http.route': route } }, parent, (span) => {
        next.handle().subscribe({
          next: (v) => subscriber.next(v),
          error: (err: unknown) => {
            span.recordException(err as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
            subscriber.error(err);
          },
          complete: () => {
            span.end();
            subscriber.complete();
          },
        });
      });
    });
  }
}
