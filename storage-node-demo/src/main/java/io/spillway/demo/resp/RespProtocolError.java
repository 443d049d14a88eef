package io.spillway.demo.resp;

/**
 * Emitted by the RESP codec ({@link RespRequestBounds}) instead of a command when the input is not valid RESP or
 * exceeds a {@link RespLimits} bound. The codec discards all further input of the connection; the handler answers with
 * {@code -ERR Protocol error: <message>} and closes it (what Redis does).
 *
 * @param message what was wrong, e.g. {@code invalid bulk length 2000000 (max 1048576)}
 */
public record RespProtocolError(String message) {
}
