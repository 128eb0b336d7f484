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

{{- define "agent-teams.migrationSecret" -}}
{{- default (printf "%s-postgres-migration" (include "agent-teams.fullname" .)) .Values.postgres.migration.existingSecret -}}
{{- end -}}

{{/* The port serving /actuator of a service: its managementPort, or its port. */}}
{{- define "agent-teams.managementPort" -}}
{{- default .port .managementPort -}}
{{- end -}}

{{/* Whether a service serves /actuator on a port of its own. */}}
{{- define "agent-teams.separateManagement" -}}
{{- if and .managementPort (ne (toString .managementPort) (toString .port)) -}}true{{- end -}}
{{- end -}}

{{/* The name of the container port Prometheus and the probes use. */}}
{{- define "agent-teams.managementPortName" -}}
{{- if include "agent-teams.separateManagement" . -}}management{{- else -}}http{{- end -}}
{{- end -}}

{{/* Query string for the Postgres TLS values: JDBC spells the options sslmode/sslrootcert. */}}
{{- define "agent-teams.jdbcTls" -}}
{{- $tls := .Values.postgres.tls -}}
{{- if and $tls.mode (ne $tls.mode "disable") -}}
?sslmode={{ $tls.mode }}{{ if $tls.caSecret }}&sslrootcert=/etc/agent-teams/postgres-tls/ca.crt{{ end }}
{{- end -}}
{{- end -}}

{{/* The same for R2DBC, which spells them sslMode/sslRootCert. */}}
{{- define "agent-teams.r2dbcTls" -}}
{{- $tls := .Values.postgres.tls -}}
{{- if and $tls.mode (ne $tls.mode "disable") -}}
?sslMode={{ $tls.mode }}{{ if $tls.caSecret }}&sslRootCert=/etc/agent-teams/postgres-tls/ca.crt{{ end }}
{{- end -}}
{{- end -}}

{{/* Environment every container of the release shares: Kafka, tracing, logging, extras. */}}
{{- define "agent-teams.kafkaEnv" -}}
- name: SPRING_KAFKA_BOOTSTRAP_SERVERS
  value: {{ .Values.kafka.bootstrapServers | quote }}
- name: SPRING_KAFKA_SECURITY_PROTOCOL
  value: {{ .Values.kafka.securityProtocol | quote }}
{{- if hasPrefix "SASL_" .Values.kafka.securityProtocol }}
{{- $mechanism := .Values.kafka.sasl.mechanism }}
- name: KAFKA_SASL_USERNAME
  valueFrom:
    secretKeyRef: {name: {{ required "kafka.sasl.existingSecret is required for SASL" .Values.kafka.sasl.existingSecret }}, key: username}
- name: KAFKA_SASL_PASSWORD
  valueFrom:
    secretKeyRef: {name: {{ .Values.kafka.sasl.existingSecret }}, key: password}
- name: SPRING_KAFKA_PROPERTIES_SASL_MECHANISM
  value: {{ $mechanism | quote }}
- name: SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG
  value: '{{ if eq $mechanism "PLAIN" }}org.apache.kafka.common.security.plain.PlainLoginModule{{ else }}org.apache.kafka.common.security.scram.ScramLoginModule{{ end }} required username="$(KAFKA_SASL_USERNAME)" password="$(KAFKA_SASL_PASSWORD)";'
{{- end }}
{{- if and (hasSuffix "SSL" .Values.kafka.securityProtocol) .Values.kafka.tls.caSecret }}
- name: SPRING_KAFKA_PROPERTIES_SSL_TRUSTSTORE_TYPE
  value: PEM
- name: SPRING_KAFKA_PROPERTIES_SSL_TRUSTSTORE_CERTIFICATES
  valueFrom:
    secretKeyRef: {name: {{ .Values.kafka.tls.caSecret }}, key: ca.crt}
{{- end }}
{{- if and (hasSuffix "SSL" .Values.kafka.securityProtocol) .Values.kafka.tls.clientCertSecret }}
- name: SPRING_KAFKA_PROPERTIES_SSL_KEYSTORE_TYPE
  value: PEM
- name: SPRING_KAFKA_PROPERTIES_SSL_KEYSTORE_CERTIFICATE_CHAIN
  valueFrom:
    secretKeyRef: {name: {{ .Values.kafka.tls.clientCertSecret }}, key: tls.crt}
- name: SPRING_KAFKA_PROPERTIES_SSL_KEYSTORE_KEY
  valueFrom:
    secretKeyRef: {name: {{ .Values.kafka.tls.clientCertSecret }}, key: tls.key}
{{- end }}
{{- end -}}

{{- define "agent-teams.observabilityEnv" -}}
- name: MANAGEMENT_TRACING_SAMPLING_PROBABILITY
  value: {{ .Values.tracing.samplingProbability | quote }}
{{- if .Values.tracing.otlpEndpoint }}
- name: MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT
  value: {{ .Values.tracing.otlpEndpoint | quote }}
{{- end }}
{{- if .Values.logging.format }}
- name: LOGGING_STRUCTURED_FORMAT_CONSOLE
  value: {{ .Values.logging.format | quote }}
{{- end }}
{{- end -}}

{{/* Pod-level security: non-root, the runtime's default seccomp profile. */}}
{{- define "agent-teams.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "agent-teams.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end -}}
