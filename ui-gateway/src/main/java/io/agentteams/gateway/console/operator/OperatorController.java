package io.agentteams.gateway.console.operator;

import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.gateway.console.Fragments;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ResponseBody;
import reactor.core.publisher.Mono;

/**
 * {@code /console/operator}: the deployment's admission and backlog, for operators only. The
 * figures refresh by polling a fragment that carries an ETag, so a poll that finds nothing changed
 * is answered 304 without a body.
 */
@Controller
public class OperatorController {

  private final OperatorFigures figures;
  private final Fragments fragments;
  private final ConsoleProperties properties;

  public OperatorController(
      OperatorFigures figures, Fragments fragments, ConsoleProperties properties) {
    this.figures = figures;
    this.fragments = fragments;
    this.properties = properties;
  }

  @GetMapping("/console/operator")
  public Mono<String> page(Model model) {
    return figures
        .gather()
        .map(
            gathered -> {
              model.addAttribute("figures", gathered);
              return "operator";
            });
  }

  @GetMapping(value = "/console/operator/figures", produces = MediaType.TEXT_HTML_VALUE)
  @ResponseBody
  public Mono<ResponseEntity<String>> figures(
      @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) @Nullable String etag) {
    return figures
        .gather()
        .map(
            gathered -> {
              Map<String, Object> variables = new HashMap<>();
              variables.put("figures", gathered);
              String html = fragments.render("live/operator", variables);
              String tag = "\"" + digest(html) + "\"";
              ResponseEntity.BodyBuilder answer =
                  ResponseEntity.status(tag.equals(etag) ? HttpStatus.NOT_MODIFIED : HttpStatus.OK)
                      .eTag(tag)
                      .cacheControl(CacheControl.noCache().cachePrivate());
              return tag.equals(etag) ? answer.build() : answer.body(html);
            });
  }

  private static String digest(String html) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(html.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 22);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
