package io.agentteams.gateway.a2a;

/** A JSON-RPC error to answer with, and the codes the team's A2A binding answers with. */
final class RpcError extends RuntimeException {

  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;
  static final int TASK_NOT_FOUND = -32001;
  static final int TASK_NOT_CANCELABLE = -32002;
  static final int UNSUPPORTED_OPERATION = -32004;
  static final int VERSION_NOT_SUPPORTED = -32009;

  private final int code;

  RpcError(int code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  int code() {
    return code;
  }

  /** The one task-not-found a team's A2A caller gets for any job outside the team. */
  static RpcError taskNotFound(String taskId) {
    return new RpcError(TASK_NOT_FOUND, "task " + taskId + " not found");
  }
}
