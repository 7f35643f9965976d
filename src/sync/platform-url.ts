/** The plugins' door to the URL check (plugins import only src/sync); it lives a floor down, in src/net. */
export * from '../net/platform-url.js';
