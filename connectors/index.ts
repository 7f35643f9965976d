/** Every connector plugin this service ships: one folder each; adding a platform is one line here. */
import type { ConnectorPlugin } from '../src/sync/plugin.js';
import { salesforcePlugin } from './salesforce/index.js';

export const connectorPlugins: ConnectorPlugin<any, any, any>[] = [salesforcePlugin];
