import { z } from 'zod';

export const RoleId = z.enum(['planner', 'actor']);
export type RoleId = z.infer<typeof RoleId>;

export const Permission = z.enum(['read', 'write', 'create', 'delete', 'execute']);
export type Permission = z.infer<typeof Permission>;
