{{- define "agent-teams.fullname" -}}
{{- printf "%s" .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{- define "agent-teams.labels" -}}
app.kubernetes.io/part-of: agent-teams
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{- define "agent-teams.image" -}}
{{- $tag := default .root.Chart.AppVersion .root.Values.image.tag -}}
{{- if .root.Values.image.registry -}}
{{ .root.Values.image.registry }}/{{ .root.Values.image.repository }}/{{ .name }}:{{ $tag }}
{{- else -}}
{{ .root.Values.image.repository }}/{{ .name }}:{{ $tag }}
{{- end -}}
{{- end -}}

{{- define "agent-teams.postgresSecret" -}}
{{- default (printf "%s-postgres" (include "agent-teams.fullname" .)) .Values.postgres.existingSecret -}}
{{- end -}}

{{- define "agent-teams.identitySecret" -}}
{{- default (printf "%s-identity" (include "agent-teams.fullname" .)) .Values.identity.existingSecret -}}
{{- end -}}
