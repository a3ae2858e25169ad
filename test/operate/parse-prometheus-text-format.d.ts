/** Types for parse-prometheus-text-format (the package ships none): the families it returns. */
declare module 'parse-prometheus-text-format' {
  type Sample = { value: string; labels?: Record<string, string> }
  type Family = { name: string; help: string; type: string; metrics: Sample[] }
  export default function parsePrometheusTextFormat(text: string): Family[]
}
