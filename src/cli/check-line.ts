/**
 * One line per check, the same in every command that lists checks (`keytool verify`,
 * `keytool backup verify`, and the wizard's backup step writes it alike): `OK  field: detail` or
 * `FAIL field: detail`.
 */
export function checkLine(c: { ok: boolean; field: string; detail: string }): string {
  return c.ok ? `OK  ${c.field}: ${c.detail}` : `FAIL ${c.field}: ${c.detail}`
}
