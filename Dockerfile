# One image per service, from the jar of ./mvnw -DskipTests package:
#   docker build --build-arg SERVICE=team-service --build-arg PORT=8081 -t agent-teams/team-service .
# SERVICE is the module (team-service, mailbox-service, task-board-service, scheduler-service,
# ui-gateway); PORT the port it serves (8081, 8082, 8083, 8084, 8080).

ARG JAVA_IMAGE=eclipse-temurin:17-jre-alpine

# Spring Boot's layered extraction: third-party dependencies, the loader, snapshot dependencies
# and the application (the service with the platform's modules, which change with it) each become
# a layer, least often changed first, so a code change rebuilds and pushes only the last, small one.
FROM ${JAVA_IMAGE} AS layers
ARG SERVICE
WORKDIR /build
COPY ${SERVICE}/target/${SERVICE}-*-exec.jar app.jar
RUN java -Djarmode=tools -jar app.jar extract --layers --destination extracted

FROM ${JAVA_IMAGE}
ARG SERVICE
ARG PORT
LABEL org.opencontainers.image.title="agent-teams-${SERVICE}" \
      org.opencontainers.image.description="Agent Teams ${SERVICE}"
RUN addgroup -S -g 10001 app && adduser -S -D -H -u 10001 -G app app
WORKDIR /app
COPY --from=layers /build/extracted/dependencies/ ./
COPY --from=layers /build/extracted/spring-boot-loader/ ./
COPY --from=layers /build/extracted/snapshot-dependencies/ ./
COPY --from=layers /build/extracted/application/ ./
# Never root; the file system may be read-only (only /tmp is written).
USER 10001:10001
ENV SERVER_ADDRESS=0.0.0.0 \
    SERVER_PORT=${PORT} \
    LOGGING_STRUCTURED_FORMAT_CONSOLE=ecs \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
EXPOSE ${PORT}
# Ready when Postgres and Kafka are (readiness group); /actuator is served on the management port
# when one is set, else on the service's own port, except the gateway's: 9091 by its own default.
HEALTHCHECK --interval=10s --timeout=3s --start-period=90s --retries=3 \
  CMD for port in ${MANAGEMENT_SERVER_PORT:-} 9091 ${SERVER_PORT}; do wget -qO- "http://127.0.0.1:$port/actuator/health/readiness" 2>/dev/null | grep -q '"UP"' && exit 0; done; exit 1
ENTRYPOINT ["java", "-jar", "/app/app.jar"]
