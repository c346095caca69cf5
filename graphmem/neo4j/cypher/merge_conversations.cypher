// Conversation nodes. `reading` (the fingerprint of a finished, checked load) is removed
// until this load has been checked, so an interrupted load never looks complete.
UNWIND $rows AS row
MERGE (c:Conversation {id: row.id})
SET c.speakers = row.speakers
REMOVE c.reading
