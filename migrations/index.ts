/** Every migration, in order. TypeORM runs those not yet applied at start and from the CLI. Add new ones at the end. */
import { Billing1763790000000 } from './1763790000000-Billing.js';
import { ReferenceData1763800000000 } from './1763800000000-ReferenceData.js';
import { ReferencePointCity1763810000000 } from './1763810000000-ReferencePointCity.js';
import { ReferenceImportLog1763820000000 } from './1763820000000-ReferenceImportLog.js';
import { LedgerModuleColumns1763830000000 } from './1763830000000-LedgerModuleColumns.js';
import { BulkJobs1763840000000 } from './1763840000000-BulkJobs.js';
import { Connectors1763850000000 } from './1763850000000-Connectors.js';
import { PublishableKeys1763860000000 } from './1763860000000-PublishableKeys.js';
import { People1763870000000 } from './1763870000000-People.js';
import { KeyCreators1764810000000 } from './1764810000000-KeyCreators.js';
import { OneConnectorPerShop1764820000000 } from './1764820000000-OneConnectorPerShop.js';
import { IdempotencyPerKey1764821000000 } from './1764821000000-IdempotencyPerKey.js';
import { OneJobEngine1764900000000 } from './1764900000000-OneJobEngine.js';
import { TestKeys1764920000000 } from './1764920000000-TestKeys.js';
import { Webhooks1764940000000 } from './1764940000000-Webhooks.js';
import { ConnectorStreams1764950000000 } from './1764950000000-ConnectorStreams.js';
import { ConnectorCreditCap1764951000000 } from './1764951000000-ConnectorCreditCap.js';
import { ShopOrders1764965000000 } from './1764965000000-ShopOrders.js';
import { IdempotencyLease1764975000000 } from './1764975000000-IdempotencyLease.js';
import { LedgerRequestIndex1765000000000 } from './1765000000000-LedgerRequestIndex.js';
import { ReferencePointLocation1765100000000 } from './1765100000000-ReferencePointLocation.js';
import { UsedFlowNonces1765200000000 } from './1765200000000-UsedFlowNonces.js';
import { LowBalanceDailyLimit1765260000000 } from './1765260000000-LowBalanceDailyLimit.js';
import { EmailChecks1765300000000 } from './1765300000000-EmailChecks.js';
import { Policies1765310000000 } from './1765310000000-Policies.js';
import { MailHostManners1765330000000 } from './1765330000000-MailHostManners.js';
import { ConnectorPolicy1765340000000 } from './1765340000000-ConnectorPolicy.js';
import { LaterWriteBacks1765350000000 } from './1765350000000-LaterWriteBacks.js';
import { EmailFeedback1765360000000 } from './1765360000000-EmailFeedback.js';

export const migrations = [
  Billing1763790000000, ReferenceData1763800000000, ReferencePointCity1763810000000, ReferenceImportLog1763820000000,
  LedgerModuleColumns1763830000000, BulkJobs1763840000000, Connectors1763850000000,
  PublishableKeys1763860000000, People1763870000000, KeyCreators1764810000000,
  OneConnectorPerShop1764820000000, IdempotencyPerKey1764821000000, OneJobEngine1764900000000,
  TestKeys1764920000000, Webhooks1764940000000, ConnectorStreams1764950000000, ConnectorCreditCap1764951000000,
  ShopOrders1764965000000, IdempotencyLease1764975000000, LedgerRequestIndex1765000000000,
  ReferencePointLocation1765100000000, UsedFlowNonces1765200000000, LowBalanceDailyLimit1765260000000,
  EmailChecks1765300000000, Policies1765310000000, MailHostManners1765330000000,
  ConnectorPolicy1765340000000, LaterWriteBacks1765350000000, EmailFeedback1765360000000,
];
