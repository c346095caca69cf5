UNWIND $rows AS row
MERGE (s:Session {key: row.key})
SET s.conversation = row.conversation,
    s.index = row.index,
    s.date = row.date,
    s.date_text = row.date_text
