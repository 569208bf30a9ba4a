/** Labels on everything the agent creates, so it can list and reconcile what it owns. */
export const LABELS = {
  managed: 'berth.managed',
  node: 'berth.node',
  site: 'berth.site',
  environment: 'berth.environment',
  role: 'berth.role',
  specHash: 'berth.spec-hash',
} as const;
