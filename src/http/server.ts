import http from 'node:http';
import type express from 'express';

/**
 * The HTTP server of `app`, whose requests and responses are born Express's. Express gives each request and response
 * its own prototype (`app.request`, `app.response`: Node's with Express's methods) by `Object.setPrototypeOf`, one
 * pair per request, and V8 then drops its optimised code for objects of that shape (src/http/README.md has the
 * figures). Here Node makes them as instances of two subclasses of its own that carry Express's
 * methods, and those are `app.request` and `app.response`: Express's `setPrototypeOf` finds them already so.
 */
export function createHttpServer(app: express.Express): http.Server {
  class ExpressRequest extends http.IncomingMessage {}
  class ExpressResponse<R extends http.IncomingMessage> extends http.ServerResponse<R> {}
  for (const [born, express] of [[ExpressRequest.prototype, app.request], [ExpressResponse.prototype, app.response]] as const) {
    // Express's methods (its prototype object's own properties), then the app's (`app`).
    for (let from: object = express; from !== Object.getPrototypeOf(born); from = Object.getPrototypeOf(from)) {
      for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(from))) {
        if (!Object.hasOwn(born, name)) Object.defineProperty(born, name, descriptor);
      }
    }
  }
  app.request = ExpressRequest.prototype as typeof app.request;
  app.response = ExpressResponse.prototype as typeof app.response;
  return http.createServer({ IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse }, app);
}
