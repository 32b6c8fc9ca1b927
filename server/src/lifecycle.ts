// The protocol's lifecycle, applied to every message before it is dispatched:
// vscode-languageserver serves any request at any time (a code action before
// `initialize` got `[]`, a hover after `shutdown` an answer). The specification says:
//
// - before `initialize`, a request fails with `ServerNotInitialized` and a notification
//   is dropped, except `exit`;
// - `initialize` comes once: another one fails with `InvalidRequest`;
// - after `shutdown`, a request fails with `InvalidRequest` (another `shutdown` too);
//   notifications other than `exit` have nothing left to act on and are dropped.
//
// Responses (to the server's own requests) always go through.
import { ErrorCodes, Message, type ResponseMessage } from 'vscode-languageserver/node';

export type LifecycleState = 'uninitialized' | 'running' | 'shut down';

export type Admission = { action: 'deliver' } | { action: 'drop' } | { action: 'refuse'; response: ResponseMessage };

const DELIVER: Admission = { action: 'deliver' };
const DROP: Admission = { action: 'drop' };

/** A method name as quoted back to the client, bounded (it is the client's own input). */
function quote(method: string): string {
  return JSON.stringify(method.length > 100 ? `${method.slice(0, 100)}…` : method);
}

function refuse(id: number | string | null, code: number, message: string): Admission {
  return { action: 'refuse', response: { jsonrpc: '2.0', id, error: { code, message } } };
}

export class ProtocolLifecycle {
  #state: LifecycleState = 'uninitialized';

  get state(): LifecycleState {
    return this.#state;
  }

  /** Decides what happens to one message from the client, in the order they arrive. */
  admit(message: Message): Admission {
    if (Message.isRequest(message)) {
      const { id, method } = message;
      switch (this.#state) {
        case 'uninitialized':
          if (method !== 'initialize') {
            return refuse(id, ErrorCodes.ServerNotInitialized, `The server is not initialized: ${quote(method)} came before "initialize".`);
          }
          this.#state = 'running';
          return DELIVER;
        case 'running':
          if (method === 'initialize') return refuse(id, ErrorCodes.InvalidRequest, 'The server is already initialized.');
          if (method === 'shutdown') this.#state = 'shut down';
          return DELIVER;
        case 'shut down':
          return refuse(id, ErrorCodes.InvalidRequest, `The server is shut down: ${quote(method)} came after "shutdown"; only "exit" is expected.`);
      }
    }
    if (Message.isNotification(message)) {
      if (message.method === 'exit') return DELIVER;
      return this.#state === 'running' ? DELIVER : DROP;
    }
    return DELIVER;
  }
}
