package io.spillway.demo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A bare socket speaking raw bytes, to send what no client library would. Reads time out after 20 s. */
final class RawRespClient implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RawRespClient(InetSocketAddress address) throws IOException {
    this(address, null);
  }

  /** A client whose socket is bound to {@code localAddress} (any port) before it connects; {@code null}: any. */
  RawRespClient(InetSocketAddress address, InetAddress localAddress) throws IOException {
    socket = new Socket();
    if (localAddress != null) {
      socket.bind(new InetSocketAddress(localAddress, 0));
    }
    socket.connect(address, 10_000);
    socket.setSoTimeout(20_000);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  RawRespClient send(String raw) throws IOException {
    out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return this;
  }

  /** Reads one CRLF-terminated line (without CRLF); {@code null} at end of stream. */
  String readLine() throws IOException {
    final ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        final byte[] bytes = line.toByteArray();
        return new String(bytes, 0, Math.max(0, bytes.length - 1), StandardCharsets.ISO_8859_1);
      }
      line.write(b);
    }
    return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
  }

  /** True if the server closed the connection (read returns end of stream within the socket timeout). */
  boolean closedByServer() throws IOException {
    try {
      return in.read() == -1;
    } catch (java.net.SocketException e) {
      return true; // reset by the server
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** The local port of this connection (the server sees the client as {@code conn-<address>:<port>}). */
  int localPort() {
    return socket.getLocalPort();
  }
}
