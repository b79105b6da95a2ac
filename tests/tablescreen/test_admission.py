"""companion/table/admission.py on its own: who is let in, who makes room, and counts that
stay right however often a connection is let go (the server tests drive it over sockets)."""

from companion.table.admission import Admission


def opened(admission, address, closed):
    return admission.admit(address, lambda: closed.append(address))


def test_a_connection_let_go_twice_is_counted_once():
    a, closed = Admission(clients=4, per_address=2, streams_per_address=1), []
    first, second = opened(a, "p1", closed), opened(a, "p1", closed)
    a.stream(first)
    a.stream(second)                        # the address's second stream: its first goes
    assert closed == ["p1"] and a.count_of("p1") == (1, 1) and a.count == 1
    a.release(first)                        # ... and its handler lets it go again at its end
    assert a.count_of("p1") == (1, 1) and a.count == 1
    a.release(second)
    a.release(second)
    assert a.count == 0 and a.held == {} and a.streams == {}
    a.stream(second)                        # a stream of a connection already gone: nothing
    assert a.streams == {}


def test_an_address_at_its_bound_is_refused_and_others_are_not():
    a, closed = Admission(clients=10, per_address=2, streams_per_address=2), []
    assert opened(a, "p1", closed) and opened(a, "p1", closed)
    assert opened(a, "p1", closed) is None
    assert opened(a, "p2", closed) is not None and closed == []


def test_a_full_server_takes_from_the_address_holding_the_most_only_while_it_holds_two_more():
    a, closed = Admission(clients=4, per_address=4, streams_per_address=4), []
    holds = [opened(a, "p1", closed) for _ in range(3)] + [opened(a, "p2", closed)]
    assert opened(a, "p3", closed) is not None          # p1 (3) > p3 (0) + 1: p1's oldest goes
    assert closed == ["p1"] and a.count_of("p1") == (2, 0) and a.count == 4
    assert holds[0] not in a.held["p1"]
    assert opened(a, "p2", closed) is None              # p1 (2) is not two more than p2 (1)
    assert opened(a, "p1", closed) is None              # nor may p1 take from itself
    assert opened(a, "p4", closed) is not None          # p1 (2) > p4 (0) + 1
    assert closed == ["p1", "p1"] and sorted(len(v) for v in a.held.values()) == [1, 1, 1, 1]
