/**
 * The connector plugins this service knows, by type: adding a platform is one entry in connectors/index.ts. The core
 * reaches plugins only through here: by type, or by what they declare (the one that checks orders).
 */
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

  /** Every plugin, in the order connectors/index.ts lists them (the dashboard's forms follow it). */
  all(): ConnectorPlugin[] {
    return [...this.plugins.values()];
  }

  /** The plugin that checks orders at purchase (`orders`), if one does: at most one store platform has the checkout extensions. */
  ordersPlugin(): ConnectorPlugin | undefined {
    return this.all().find((p) => p.orders);
  }
}
