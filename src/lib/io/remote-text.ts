/**
 * Text that came from somewhere tnv does not control (an RPC error message, an HTML error page,
 * a node's log line) is made safe to print: control characters (C0, DEL, C1: escape sequences,
 * bells, carriage returns that redraw the line) and the invisible bidirectional overrides are
 * removed, white space runs become one space, and the result is cut to `max` characters. Used
 * wherever such text is printed, and by TnvError.render as the last guard.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
const WHITE = /[\t\n\r]+/g

/** Default length of a remote excerpt: one line of a terminal and a half. */
export const REMOTE_TEXT_MAX = 160

/**
 * @example remoteText('\u001b]0;title\u0007Not found') // ']0;titleNot found'
 */
export function remoteText(value: unknown, max = REMOTE_TEXT_MAX): string {
  let text: string
  if (typeof value === 'string') text = value
  else if (value === undefined || value === null) text = ''
  else {
    try {
      text = typeof value === 'object' ? JSON.stringify(value) : String(value)
    } catch {
      text = String(value)
    }
  }
  // cut first (bounded work on a huge body), then clean, then cut again to the exact length
  const head = text.length > max * 4 + 64 ? text.slice(0, max * 4 + 64) : text
  const clean = head.replace(WHITE, ' ').replace(CONTROL, '').replace(/ {2,}/g, ' ').trim()
  const chars = Array.from(clean)
  return chars.length > max || head.length < text.length ? `${chars.slice(0, max).join('')}…` : clean
}

/** Removes control characters (keeping line breaks between lines) without cutting: for tnv's own messages that quote remote text. */
export function stripControl(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(CONTROL, '')
}
