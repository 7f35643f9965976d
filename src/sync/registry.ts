/** The connector plugins this service knows, by type (`salesforce`, `shopify`): adding a platform is one entry. */
import type { ConnectorPlugin } from './plugin.js';

export class ConnectorRegistry {
  private readonly plugins = new Map<string, ConnectorPlugin>();

  constructor(plugins: ConnectorPlugin<any, any, any>[]) {
    for (const p of plugins) this.plugins.set(p.type, p as ConnectorPlugin);
  }

  get(type: string): ConnectorPlugin | undefined {
    return this.plugins.get(type);
  }

  get types(): string[] {
    return [...this.plugins.keys()];
  }
}
