/** Connectors (docs/connectors.md): Salesforce orgs and Shopify stores kept verified on a schedule. */
import type { RequestOptions, Transport } from './transport.js';
import type {
  Connector, ConnectorList, ConnectorRun, ConnectorRunList, CreateConnectorRequest, RunStarted, UpdateConnectorRequest,
} from './types.js';

const at = (id: string) => `/v1/connectors/${encodeURIComponent(id)}`;

export class Connectors {
  constructor(private readonly transport: Transport) {}

  async list(options?: RequestOptions): Promise<Connector[]> {
    return (await this.transport.json<ConnectorList>({ method: 'GET', path: '/v1/connectors' }, options)).connectors;
  }

  get(id: string, options?: RequestOptions): Promise<Connector> {
    return this.transport.json<Connector>({ method: 'GET', path: at(id) }, options);
  }

  /** Credentials are write-only: sealed by the service and never returned. */
  create(connector: CreateConnectorRequest, options?: RequestOptions): Promise<Connector> {
    return this.transport.json<Connector>({ method: 'POST', path: '/v1/connectors', json: connector }, options);
  }

  update(id: string, changes: UpdateConnectorRequest, options?: RequestOptions): Promise<Connector> {
    return this.transport.json<Connector>({ method: 'PATCH', path: at(id), json: changes }, options);
  }

  /** Deletes the connector with its runs and record hashes. */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.json<void>({ method: 'DELETE', path: at(id) }, options);
  }

  /** Starts a run now (ConflictError `connector-busy` while one runs). */
  run(id: string, options?: RequestOptions): Promise<RunStarted> {
    return this.transport.json<RunStarted>({ method: 'POST', path: `${at(id)}/runs` }, options);
  }

  /** The connector's runs, newest first. */
  async runs(id: string, options?: RequestOptions): Promise<ConnectorRun[]> {
    return (await this.transport.json<ConnectorRunList>({ method: 'GET', path: `${at(id)}/runs` }, options)).runs;
  }
}
