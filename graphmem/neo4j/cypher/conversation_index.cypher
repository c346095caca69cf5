// A loaded conversation once its turns' search fields are written: how many turns it indexes,
// their total BM25 length, and its speakers in lower case (the person scope reads them).
MATCH (c:Conversation {id: $conversation})
CALL (c) {
  MATCH (t:Turn {conversation: c.id})
  WHERE t.length IS NOT NULL
  RETURN count(t) AS n, sum(t.length) AS total
}
SET c.indexed = n, c.length = total, c.lspeakers = $lspeakers
