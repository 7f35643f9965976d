/** The `cv_*` properties made in the local HubSpot as an admin (or the set-up) would make them. */
import { CV_PROPERTIES, PROPERTY_GROUP, propertyCreateBody } from '../../connectors/hubspot/properties.js';
import type { FakeHubspotState } from './fake-hubspot.js';

export function setUpProperties(state: FakeHubspotState, only: readonly string[] = CV_PROPERTIES) {
  if (!state.crm.groups.has(PROPERTY_GROUP.name)) state.crm.createGroup({ ...PROPERTY_GROUP });
  for (const name of CV_PROPERTIES) if (only.includes(name) && !state.crm.properties.has(name)) state.crm.createProperty(propertyCreateBody(name));
}
