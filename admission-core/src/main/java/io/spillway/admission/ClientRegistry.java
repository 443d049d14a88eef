package io.spillway.admission;

import io.spillway.admission.path.ClassCaps;
import io.spillway.admission.path.PermitTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps client ids to {@link ClientHandle}s, once per client, and each client to its {@link ClientClass}: the first
 * configured class whose pattern matches the whole id, else the default class. A reconfiguration re-points every
 * handle to the caps of its new class; the handle's counters (outstanding work) carry over.
 *
 * <p>Clients that come and go (one per connection, say) are {@linkplain #unregister unregistered} when they go, so the
 * registry stays as large as the clients alive. A handle's dense index names it in the permit table; an unregistered
 * handle's index is given to a new client only once the old one has nothing outstanding (every permit released,
 * every charge returned), so a late release can never discharge the wrong client.
 */
public final class ClientRegistry {

  private final ConcurrentHashMap<String, ClientHandle> handles = new ConcurrentHashMap<>();
  /** Handles by {@link ClientHandle#index}; grown copy-on-write under {@code this}, read without a lock. */
  private volatile ClientHandle[] byIndex = new ClientHandle[16];
  private int registered; // guarded by this
  /** Retired handles looked at per registration before a fresh index is taken. */
  private static final int RETIRED_CHECKS = 8;
  /** Unregistered handles whose index is not reused yet; guarded by this. */
  private final java.util.ArrayDeque<ClientHandle> retired = new java.util.ArrayDeque<>();
  private volatile ClassCaps[] classes;
  private volatile ClassCaps defaultClass;

  ClientRegistry(List<ClientClass> clientClasses, ClientClass defaultClientClass, int limit, long meanCostUnits) {
    classify(clientClasses, defaultClientClass, limit, meanCostUnits, meanCostUnits);
  }

  /** Returns the handle of this client id, creating it on first use. Thread-safe; call once per client. */
  public ClientHandle register(String clientId) {
    Objects.requireNonNull(clientId, "clientId");
    ClientHandle handle = handles.computeIfAbsent(clientId, this::newHandle);
    ClassCaps current = resolve(clientId);
    if (handle.caps != current) { // a reconfiguration raced with the first registration
      handle.caps = current;
    }
    return handle;
  }

  /**
   * Forgets a client that is gone (a connection that closed): its id is free again, and its index is reused once its
   * outstanding requests have all finished. The handle must not be used for new requests afterwards; those already
   * admitted or queued finish and release as usual. Does nothing if the handle is not (or no longer) this
   * registry's current handle of its id.
   */
  public void unregister(ClientHandle handle) {
    Objects.requireNonNull(handle, "handle");
    if (handle.registry == this && handles.remove(handle.id(), handle)) {
      synchronized (this) {
        retired.add(handle);
      }
    }
  }

  /** Clients registered and not unregistered. */
  public int size() {
    return handles.size();
  }

  /** The handle of a registered client, or null. */
  public ClientHandle find(String clientId) {
    return handles.get(clientId);
  }

  /** The handle with this index; the index must come from a handle of this registry. */
  ClientHandle atIndex(int index) {
    return byIndex[index];
  }

  /** All registered clients (a live, weakly consistent view). */
  public Collection<ClientHandle> handles() {
    return Collections.unmodifiableCollection(handles.values());
  }

  /** The configured classes in match order, then the default class. */
  public List<ClientClass> classes() {
    List<ClientClass> result = new ArrayList<>();
    for (ClassCaps caps : classes) {
      result.add(caps.clientClass);
    }
    result.add(defaultClass.clientClass);
    return result;
  }

  /** Installs new classes and re-points every registered handle (reconfiguration; control thread). */
  void classify(List<ClientClass> clientClasses, ClientClass defaultClientClass, int limit, long meanCostUnits,
      long costliestUnits) {
    ClassCaps[] next = new ClassCaps[clientClasses.size()];
    for (int i = 0; i < next.length; i++) {
      next[i] = new ClassCaps(clientClasses.get(i), limit, meanCostUnits, costliestUnits);
    }
    defaultClass = new ClassCaps(defaultClientClass, limit, meanCostUnits, costliestUnits);
    classes = next;
    for (ClientHandle handle : handles.values()) {
      handle.caps = resolve(handle.id());
    }
  }

  /** Recomputes every class's caps from the current limit and charges (control thread, once per tick). */
  void updateCaps(int limit, long meanCostUnits, long costliestUnits) {
    for (ClassCaps caps : classes) {
      caps.update(limit, meanCostUnits, costliestUnits);
    }
    defaultClass.update(limit, meanCostUnits, costliestUnits);
  }

  private synchronized ClientHandle newHandle(String clientId) {
    ClientHandle reusable = reusableRetired();
    if (reusable != null) {
      ClientHandle handle = new ClientHandle(this, reusable.index, clientId, resolve(clientId));
      ClientHandle[] all = byIndex;
      all[handle.index] = handle;
      byIndex = all; // publishes the slot's new handle to lock-free readers
      return handle;
    }
    if (registered > PermitTable.MAX_CLIENT_INDEX) {
      throw new IllegalStateException("cannot register client '" + clientId + "': " + registered
          + " clients are registered, the most an engine tracks");
    }
    ClientHandle handle = new ClientHandle(this, registered, clientId, resolve(clientId));
    ClientHandle[] all = byIndex;
    if (registered == all.length) {
      all = Arrays.copyOf(all, 2 * all.length);
    }
    all[registered++] = handle;
    byIndex = all; // publishes the new slot (and a grown array) to lock-free readers
    return handle;
  }

  /** A retired handle with nothing outstanding, taken off the list; looks at a few, oldest first (under this). */
  private ClientHandle reusableRetired() {
    for (int i = Math.min(retired.size(), RETIRED_CHECKS); i > 0; i--) {
      ClientHandle candidate = retired.poll();
      if (candidate.outstanding == 0L) {
        return candidate;
      }
      retired.add(candidate); // still finishing: look again later
    }
    return null;
  }

  private ClassCaps resolve(String clientId) {
    for (ClassCaps caps : classes) {
      if (caps.clientClass.matches(clientId)) {
        return caps;
      }
    }
    return defaultClass;
  }
}
