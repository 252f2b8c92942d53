/**
 * Checking and rendering what an MCP server sends back, at the trust boundary: tool lists, tool
 * results and resources are zod-checked; text goes to the model as it is (the loop caps it like
 * any tool result), images, audio and binary blobs are summarised, never pasted as base64.
 */
import * as z from 'zod';

export const McpToolInfo = z.object({
  name: z.string().min(1).max(128),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.object({ type: z.literal('object') }).passthrough(),
  annotations: z.object({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  }).passthrough().optional(),
}).passthrough();
export type McpToolInfo = z.infer<typeof McpToolInfo>;

const ResourceContents = z.object({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
}).passthrough();

const Content = z.union([
  z.object({ type: z.literal('text'), text: z.string() }).passthrough(),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }).passthrough(),
  z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string() }).passthrough(),
  z.object({ type: z.literal('resource'), resource: ResourceContents }).passthrough(),
  z.object({ type: z.literal('resource_link'), uri: z.string(), name: z.string().optional() }).passthrough(),
]);

const CallToolResult = z.object({
  content: z.array(Content).default([]),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
}).passthrough();

/** Base64 length to bytes, for the summary line. */
const bytesOf = (b64: string) => Math.floor((b64.length * 3) / 4);

function renderResource(r: z.infer<typeof ResourceContents>): string {
  if (r.text !== undefined) return `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}]\n${r.text}`;
  if (r.blob !== undefined) return `[resource ${r.uri}: ${r.mimeType ?? 'binary'}, ${bytesOf(r.blob).toLocaleString('en-US')} bytes, not shown]`;
  return `[resource ${r.uri}]`;
}

/** The tools a server listed that are usable; the others are named in `skipped`. */
export function checkToolList(raw: readonly unknown[]): { tools: McpToolInfo[]; skipped: string[] } {
  const tools: McpToolInfo[] = [];
  const skipped: string[] = [];
  for (const t of raw) {
    const parsed = McpToolInfo.safeParse(t);
    if (parsed.success) tools.push(parsed.data);
    else skipped.push(String((t as { name?: unknown })?.name ?? '?'));
  }
  return { tools, skipped };
}

/** A tool result as text for the model; `isError` when the server said the call failed. Throws on a malformed result. */
export function renderToolResult(raw: unknown): { text: string; isError: boolean } {
  const parsed = CallToolResult.safeParse(raw);
  if (!parsed.success) throw new Error(`the server sent a malformed result (${parsed.error.issues[0]?.message ?? 'unexpected shape'})`);
  const parts = parsed.data.content.map((c) => {
    switch (c.type) {
      case 'text': return c.text;
      case 'image': return `[image: ${c.mimeType}, ${bytesOf(c.data).toLocaleString('en-US')} bytes, not shown]`;
      case 'audio': return `[audio: ${c.mimeType}, ${bytesOf(c.data).toLocaleString('en-US')} bytes, not shown]`;
      case 'resource': return renderResource(c.resource);
      case 'resource_link': return `[resource link ${c.uri}${c.name ? ` (${c.name})` : ''}]`;
    }
  });
  if (!parts.length && parsed.data.structuredContent !== undefined) parts.push(JSON.stringify(parsed.data.structuredContent));
  return { text: parts.join('\n') || '(no content)', isError: parsed.data.isError === true };
}

const ListResources = z.object({ resources: z.array(z.object({ uri: z.string(), name: z.string().optional(), description: z.string().optional(), mimeType: z.string().optional() }).passthrough()) }).passthrough();
const ReadResource = z.object({ contents: z.array(ResourceContents) }).passthrough();

export function renderResourceList(raw: unknown, server: string): string {
  const parsed = ListResources.safeParse(raw);
  if (!parsed.success) throw new Error('the server sent a malformed resource list');
  if (!parsed.data.resources.length) return `${server} lists no resources.`;
  return `Resources of ${server}:\n${parsed.data.resources.map((r) => `- ${r.uri}${r.name ? ` — ${r.name}` : ''}${r.description ? `: ${r.description}` : ''}`).join('\n')}`;
}

export function renderResourceContents(raw: unknown): string {
  const parsed = ReadResource.safeParse(raw);
  if (!parsed.success) throw new Error('the server sent a malformed resource');
  return parsed.data.contents.map(renderResource).join('\n\n') || '(empty resource)';
}
