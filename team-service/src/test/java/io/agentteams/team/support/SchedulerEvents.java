package io.agentteams.team.support;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.JobStateChanged;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes scheduler events the way scheduler-service will: envelopes keyed by team id. */
public final class SchedulerEvents implements AutoCloseable {

  private final KafkaProducer<String, String> producer;
  private final EventCodec codec = new EventCodec("scheduler-service", Clock.systemUTC());

  public SchedulerEvents() {
    producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.shared().kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all"),
            new StringSerializer(),
            new StringSerializer());
  }

  /** Publishes a job's transition and returns the event id. */
  public UUID jobState(String ownerId, UUID teamId, String jobId, String state, long jobRevision) {
    JobStateChanged change =
        new JobStateChanged(
            jobId, teamId.toString(), "writer", "request", state, null, jobRevision);
    EventEnvelope envelope = codec.envelope(change, teamId.toString(), ownerId, jobRevision, null);
    try {
      producer
          .send(
              new ProducerRecord<>(
                  Topics.SCHEDULER_EVENTS, teamId.toString(), codec.write(envelope)))
          .get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not publish a scheduler event", e);
    }
    return envelope.eventId();
  }

  @Override
  public void close() {
    producer.close();
  }
}
