import type { components } from '@berth/sdk';

export type Domain = components['schemas']['Domain'];
