// The k conversations a query is most about (the last part of a conversation search, after the
// candidates are scored): each scores its best candidate in full and `$rest` times the sum of its
// next `$turns - 1` best, added best first (graphmem.index.conversations' sum); the named
// conversations first, then the rest; ties by conversation.
WHERE score > 0
WITH named, t.conversation AS conversation, score, t.position AS position
ORDER BY conversation, score DESC, position
WITH named, conversation, collect(score)[0..$q.turns] AS best
WITH conversation, conversation IN named AS inside,
     best[0] + $q.rest * reduce(total = 0.0, x IN best[1..] | total + x) AS score
ORDER BY inside DESC, score DESC, conversation
LIMIT $q.k
RETURN conversation, score
