// A loaded conversation once its turns' search fields are written: how many turns it indexes,
// their total BM25 length, its speakers in lower case (the person scope reads them), and how many
// of its turns are an asker's (graphmem.memory.askers).
MATCH (c:Conversation {id: $conversation})
CALL (c) {
  MATCH (t:Turn {conversation: c.id})
  WHERE t.length IS NOT NULL
  RETURN count(t) AS n, sum(t.length) AS total
}
SET c.indexed = n, c.length = total, c.lspeakers = $lspeakers, c.askers = $askers
