import * as z from 'zod';
import { PERMISSIONS, ROLE_ID_PATTERN } from './roleTable';

export * from './roleTable';

export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

/**
 * A role id as it travels (events, messages, history, flags). Which ids exist is data — the role
 * registry in force (the product table, or a test's) — so the wire checks the shape and the host
 * checks the id against its registry.
 */
export const RoleId = z.string().regex(ROLE_ID_PATTERN);
export type RoleId = string;
