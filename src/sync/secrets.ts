/** The plugins' door to the credential box (plugins import only src/sync); it lives a floor down, in src/kit. */
export * from '../kit/secrets.js';
