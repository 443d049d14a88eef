package io.spillway.demo.server;

import io.spillway.admission.Tier;
import io.spillway.demo.command.TierNames;
import io.spillway.demo.resp.RespCommand;
import io.spillway.demo.resp.RespReply;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Connection-level commands answered on the event loop without touching storage: PING, ECHO, QUIT, SELECT 0,
 * CLIENT, HELLO, INFO, COMMAND, CONFIG GET, SPILLWAY.TIER, SPILLWAY.TIMEOUT and SPILLWAY.LEADS. Only as much of each
 * as redis-cli, redis-benchmark and Jedis need; error texts follow Redis.
 */
final class SessionCommands {
  static final Set<String> NAMES = Set.of("PING", "ECHO", "QUIT", "SELECT", "CLIENT", "HELLO", "INFO", "COMMAND",
      "CONFIG", "SPILLWAY.TIER", "SPILLWAY.TIMEOUT", "SPILLWAY.LEADS");
  private static final int MAX_CLIENT_NAME = 64;
  /** The longest caller timeout a connection may declare: an hour (the node's own request timeout still caps it). */
  static final long MAX_TIMEOUT_MS = 3_600_000L;

  private final NodeView node;
  private final String version;

  /**
   * @param node INFO's body and the partitions the node leads
   * @param version server version reported by HELLO and INFO
   */
  SessionCommands(NodeView node, String version) {
    this.node = node;
    this.version = version;
  }

  static boolean isSessionCommand(String name) {
    return NAMES.contains(name);
  }

  RespReply execute(RespCommand c, Session session) {
    final int n = c.size();
    switch (c.name()) {
      case "PING":
        return n == 1 ? RespReply.PONG : n == 2 ? new RespReply.Bulk(c.arg(1)) : arity("ping");
      case "ECHO":
        return n == 2 ? new RespReply.Bulk(c.arg(1)) : arity("echo");
      case "QUIT":
        session.closeAfterReply = true;
        return RespReply.OK;
      case "SELECT":
        if (n != 2) {
          return arity("select");
        }
        return "0".equals(c.argString(1)) ? RespReply.OK : RespReply.err("DB index is out of range");
      case "CLIENT":
        return client(c, session);
      case "HELLO":
        return hello(c, session);
      case "INFO":
        return RespReply.bulk(node.info());
      case "COMMAND":
        return n >= 2 && "COUNT".equalsIgnoreCase(c.argString(1)) ? new RespReply.Int(NAMES.size() + 5)
            : RespReply.EMPTY_ARRAY;
      case "CONFIG":
        return config(c);
      case "SPILLWAY.TIER":
        return tier(c, session);
      case "SPILLWAY.TIMEOUT":
        return timeout(c, session);
      case "SPILLWAY.LEADS":
        return n == 1 ? leads() : arity("spillway.leads");
      default:
        return RespReply.err("unknown command '" + c.name().toLowerCase(Locale.ROOT) + "'");
    }
  }

  private RespReply client(RespCommand c, Session session) {
    if (c.size() < 2) {
      return arity("client");
    }
    switch (c.argString(1).toUpperCase(Locale.ROOT)) {
      case "SETNAME":
        if (c.size() != 3) {
          return arity("client|setname");
        }
        return setName(c.argString(2), session);
      case "GETNAME":
        return session.clientName == null ? RespReply.NULL_BULK : RespReply.bulk(session.clientName);
      case "ID":
        return new RespReply.Int(session.id);
      case "SETINFO":
        return c.size() == 4 ? RespReply.OK : arity("client|setinfo");
      default:
        return RespReply.err("unknown subcommand '" + c.argString(1) + "'. Try CLIENT SETNAME, GETNAME, ID.");
    }
  }

  private static RespReply setName(String name, Session session) {
    if (name.isEmpty()) {
      session.rename(null); // Redis: an empty name removes the name
      return RespReply.OK;
    }
    if (name.length() > MAX_CLIENT_NAME || !name.chars().allMatch(ch -> ch > ' ' && ch < 127)) {
      return RespReply.err("Client names cannot contain spaces, newlines or special characters and are at most "
          + MAX_CLIENT_NAME + " characters.");
    }
    session.rename(name);
    return RespReply.OK;
  }

  private RespReply hello(RespCommand c, Session session) {
    int i = 1;
    if (c.size() >= 2) {
      final String proto = c.argString(1);
      if (!"2".equals(proto)) {
        return new RespReply.Error("NOPROTO this server supports RESP2 only (HELLO 2)");
      }
      i = 2;
    }
    for (; i < c.size(); i++) {
      final String option = c.argString(i).toUpperCase(Locale.ROOT);
      if ("SETNAME".equals(option) && i + 1 < c.size()) {
        final RespReply r = setName(c.argString(++i), session);
        if (r instanceof RespReply.Error) {
          return r;
        }
      } else if ("AUTH".equals(option) && i + 2 < c.size()) {
        i += 2; // no authentication: accepted and ignored
      } else {
        return RespReply.err("syntax error in HELLO option '" + c.argString(i) + "'");
      }
    }
    return new RespReply.Array(List.of(
        RespReply.bulk("server"), RespReply.bulk("spillway"),
        RespReply.bulk("version"), RespReply.bulk(version),
        RespReply.bulk("proto"), new RespReply.Int(2),
        RespReply.bulk("id"), new RespReply.Int(session.id),
        RespReply.bulk("mode"), RespReply.bulk("standalone"),
        RespReply.bulk("role"), RespReply.bulk("master"),
        RespReply.bulk("modules"), RespReply.EMPTY_ARRAY));
  }

  private static RespReply config(RespCommand c) {
    if (c.size() != 3 || !"GET".equalsIgnoreCase(c.argString(1))) {
      return RespReply.err("only CONFIG GET <parameter> is supported");
    }
    final String param = c.argString(2).toLowerCase(Locale.ROOT);
    switch (param) {
      case "save":
        return new RespReply.Array(List.of(RespReply.bulk("save"), RespReply.bulk("")));
      case "appendonly":
        return new RespReply.Array(List.of(RespReply.bulk("appendonly"), RespReply.bulk("no")));
      default:
        return RespReply.EMPTY_ARRAY;
    }
  }

  private static RespReply tier(RespCommand c, Session session) {
    if (c.size() != 2) {
      return arity("spillway.tier");
    }
    try {
      session.tier = TierNames.parse(c.argString(1));
      return RespReply.OK;
    } catch (IllegalArgumentException e) {
      return RespReply.err(e.getMessage());
    }
  }

  /**
   * {@code SPILLWAY.TIMEOUT <ms>}: how long the connection's caller waits for a reply (a deadline propagated the way
   * gRPC propagates {@code grpc-timeout}); from the next command on, a command still waiting past it is answered with
   * the timeout error and never reaches storage. 0 clears it; the node's request timeout caps it either way.
   */
  private static RespReply timeout(RespCommand c, Session session) {
    if (c.size() != 2) {
      return arity("spillway.timeout");
    }
    final String value = c.argString(1);
    final long ms;
    try {
      ms = Long.parseLong(value);
    } catch (NumberFormatException e) {
      return timeoutOutOfRange(value);
    }
    if (ms < 0 || ms > MAX_TIMEOUT_MS) {
      return timeoutOutOfRange(value);
    }
    session.timeoutNanos = ms * 1_000_000L;
    return RespReply.OK;
  }

  private static RespReply timeoutOutOfRange(String value) {
    return RespReply.err("SPILLWAY.TIMEOUT takes whole milliseconds in [0, " + MAX_TIMEOUT_MS + "] (0: the node's "
        + "request timeout), was '" + value + "'");
  }

  /**
   * {@code SPILLWAY.LEADS}: an array of integers, the cluster's partition count first, then each partition this
   * node is the ready leader of, so a client that routes by partition (a key's partition is
   * {@code murmur3(key) & 63} modulo the count) can send each key to its leader instead of having it proxied.
   */
  private RespReply leads() {
    final List<RespReply> items = new java.util.ArrayList<>();
    items.add(new RespReply.Int(node.partitions()));
    node.ledPartitions().forEach(p -> items.add(new RespReply.Int(p)));
    return new RespReply.Array(items);
  }

  private static RespReply arity(String name) {
    return RespReply.err("wrong number of arguments for '" + name + "' command");
  }
}
