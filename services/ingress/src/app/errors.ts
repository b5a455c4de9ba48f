/** An ingress request refused with an API status and code (mapped at the HTTP edge). */
export class IngressError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'IngressError';
  }
}
