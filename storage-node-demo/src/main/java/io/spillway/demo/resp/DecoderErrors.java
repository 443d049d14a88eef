package io.spillway.demo.resp;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Words the exceptions of Netty's {@code RedisDecoder} (netty-codec-redis 4.2) as this server's protocol errors.
 *
 * <p>The decoder reports what went wrong but not where; the caller supplies where the request stood: between
 * requests (a {@code *} header or an inline line was being read), inside an array (a {@code $} header), or inside
 * a bulk string of known length. The patterns follow the decoder's messages; one it does not know is passed on
 * as {@code malformed request (<message>)}, still answered with {@code -ERR Protocol error} and a close.
 * {@code RespRequestBoundsTest} pins every translation, so a Netty upgrade that rewords one fails the build.
 */
final class DecoderErrors {
  private static final Pattern LENGTH = Pattern.compile("length: (-?\\d+) \\(expected: ([<>]=) (-?\\d+)\\)");

  /** Where the request stood when the decoder failed. */
  enum Position { BETWEEN_REQUESTS, ARRAY, BULK_BODY }

  private DecoderErrors() {
  }

  /**
   * @param message the decoder's exception message
   * @param openBulkLength the length of the bulk string being read, when {@code position} is BULK_BODY
   */
  static String translate(String message, Position position, int openBulkLength, RespLimits limits) {
    final String text = message == null ? "" : message;
    final char header = position == Position.BETWEEN_REQUESTS ? '*' : '$';
    if (text.startsWith("delimiter: ")) {
      return switch (position) {
        case BULK_BODY -> "expected CRLF after a bulk string of " + openBulkLength + " bytes";
        case ARRAY -> "'$' header must end with CRLF";
        case BETWEEN_REQUESTS -> "line must end with CRLF";
      };
    }
    if (text.startsWith("bad byte in number")) {
      return "invalid '" + header + "' header: not a number";
    }
    if (text.startsWith("no number to parse")) {
      return "invalid '" + header + "' header: no digits";
    }
    if (text.startsWith("too many characters to be a valid RESP Integer")) {
      return "invalid '" + header + "' header: more than 19 digits";
    }
    final Matcher m = LENGTH.matcher(text);
    if (m.lookingAt()) {
      final String length = m.group(1);
      final boolean inlineCap = m.group(2).equals("<=") && m.group(3).equals(Integer.toString(limits.maxInlineBytes()));
      if (inlineCap) {
        return position == Position.BETWEEN_REQUESTS
            ? "inline request longer than " + limits.maxInlineBytes() + " bytes"
            : "expected '$', got a line longer than " + limits.maxInlineBytes() + " bytes";
      }
      if (position != Position.BETWEEN_REQUESTS) {
        return "invalid bulk length " + length + " (max " + limits.maxBulkBytes() + ")";
      }
      return m.group(2).equals(">=")
          ? "invalid multibulk length " + length + " (max " + limits.maxArrayLength() + ")"
          : RespRequestBounds.NOT_A_REQUEST + "'$'";
    }
    return "malformed request (" + text + ")";
  }
}
