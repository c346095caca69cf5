// A memory conversation after an ingest: how many turns it indexes, their total BM25 length,
// and its speakers (the person scope reads them).
MATCH (c:Conversation {id: $conversation})
SET c.indexed = c.indexed + $added, c.length = c.length + $length, c.speakers = $speakers, c.lspeakers = $lspeakers
