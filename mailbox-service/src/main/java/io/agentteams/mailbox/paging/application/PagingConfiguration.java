package io.agentteams.mailbox.paging.application;

import io.agentteams.mailbox.MailboxProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** One response budget for every read of the mailbox, measured with the API's own mapper. */
@Configuration(proxyBeanMethods = false)
class PagingConfiguration {

  @Bean
  ResponseBudget responseBudget(JsonMapper json, MailboxProperties properties) {
    return new ResponseBudget(json, properties.responseMaxBytes());
  }
}
