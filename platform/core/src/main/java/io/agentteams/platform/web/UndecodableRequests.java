package io.agentteams.platform.web;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import reactor.netty.NettyPipeline;

/**
 * Answers a request the HTTP decoder could not read — a request line or headers longer than it
 * accepts, or bytes that are not HTTP — with Problem Details (414, 431 or 400), where the server
 * would otherwise answer with an empty body before the application ever sees the request. It sits
 * right after the decoder in each connection's pipeline and closes the connection after answering
 * (its side first, so that a client still sending a body reads the answer).
 */
public final class UndecodableRequests extends ChannelInboundHandlerAdapter {

  private boolean failed;

  /** Puts a fresh one after the decoder of every connection, before it reads its first byte. */
  public static NettyServerCustomizer customizer() {
    return server ->
        server.doOnChannelInit(
            (observer, channel, remote) -> {
              ChannelPipeline pipeline = channel.pipeline();
              if (pipeline.get(NettyPipeline.HttpCodec) != null
                  && pipeline.get(UndecodableRequests.class) == null) {
                pipeline.addAfter(
                    NettyPipeline.HttpCodec,
                    "agentteams.undecodableRequests",
                    new UndecodableRequests());
              }
            });
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object message) {
    if (failed) {
      ReferenceCountUtil.release(message);
      return;
    }
    // Only a request whose line or headers could not be read: a failure in a body comes after the
    // application has the request and may have answered it.
    if (message instanceof HttpRequest http && http.decoderResult().isFailure()) {
      failed = true;
      Throwable cause = http.decoderResult().cause();
      ReferenceCountUtil.release(message);
      context
          .writeAndFlush(problem(cause))
          .addListener(
              (ChannelFutureListener)
                  written -> {
                    // Closing with the client's body still arriving would reset the connection
                    // and lose the answer: stop writing, keep discarding what comes, close soon.
                    if (written.channel() instanceof DuplexChannel duplex) {
                      duplex.shutdownOutput();
                      context.executor().schedule((Runnable) context::close, 5, TimeUnit.SECONDS);
                    } else {
                      written.channel().close();
                    }
                  });
      return;
    }
    context.fireChannelRead(message);
  }

  private static FullHttpResponse problem(Throwable cause) {
    HttpResponseStatus status;
    String code;
    String detail;
    if (cause instanceof TooLongHttpLineException) {
      status = HttpResponseStatus.REQUEST_URI_TOO_LONG;
      code = "uri-too-long";
      detail = "the request line is longer than this server accepts";
    } else if (cause instanceof TooLongHttpHeaderException) {
      status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
      code = "headers-too-large";
      detail = "the request headers are larger than this server accepts";
    } else {
      status = HttpResponseStatus.BAD_REQUEST;
      code = "malformed-request";
      detail = "the request is not valid HTTP";
    }
    String body =
        "{\"type\":\"urn:agentteams:problem:"
            + code
            + "\",\"title\":\""
            + status.reasonPhrase()
            + "\",\"status\":"
            + status.code()
            + ",\"detail\":\""
            + detail
            + "\",\"code\":\""
            + code
            + "\"}";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    FullHttpResponse response =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(bytes));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json");
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    return response;
  }
}
