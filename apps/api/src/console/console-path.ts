/** Where the console is served: pages for people, in HTML, under a session cookie. */
export const CONSOLE_PATH = '/console';
export const SIGN_IN_PATH = `${CONSOLE_PATH}/sign-in`;
export const SIGN_OUT_PATH = `${CONSOLE_PATH}/sign-out`;
export const ASSETS_PATH = `${CONSOLE_PATH}/assets`;

export const runPath = (id: string) => `${CONSOLE_PATH}/runs/${id}`;
