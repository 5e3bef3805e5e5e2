/**
 * Server-Sent Events as the run events endpoint writes them: one frame per event, `id`, `event`
 * and one `data` line (the data is one line of JSON, never a newline in it), and a comment line
 * for the heartbeat, which proxies see as traffic and clients ignore.
 */
export function eventFrame(id: string, type: string, data: string): string {
  return `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;
}

export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** One frame as a client reads it back. */
export interface ParsedFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Frames of a stream's text (complete frames only; what follows the last blank line is left out). */
export function parseFrames(text: string): ParsedFrame[] {
  const frames: ParsedFrame[] = [];
  const blocks = text.split('\n\n');
  blocks.pop();
  for (const block of blocks) {
    const frame: ParsedFrame = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) frame.comment = line.slice(1).trim();
      else {
        const colon = line.indexOf(':');
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id' || field === 'event' || field === 'data') frame[field] = value;
      }
    }
    frames.push(frame);
  }
  return frames;
}
