import { describe, expect, it } from 'vitest';
import { ACKNOWLEDGE_PAGE, PACK_JOIN_PAGE } from '@pawguard/shared';
import { paths } from './paths';

describe('paths the server writes into mail', () => {
  it('are the routes the app serves', () => {
    expect(paths.acknowledge).toBe(ACKNOWLEDGE_PAGE);
    expect(paths.packJoin).toBe(PACK_JOIN_PAGE);
  });
});
