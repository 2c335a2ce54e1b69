import type { IncomingMessage, ServerResponse } from 'node:http'

export declare const PROXY_PATH: string
export declare function isContentPath(
  root: string,
  path: string,
  kind?: 'read' | 'write',
): Promise<boolean>
export declare function editorProxy(
  root: string,
): Promise<
  (
    request: IncomingMessage,
    response: ServerResponse,
    gate: { origin: string; host: string },
  ) => Promise<void>
>
