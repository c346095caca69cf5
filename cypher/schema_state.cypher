// Every index the database has, and whether it is online: the schema step skips its
// statements when each index (and each constraint's own index) it would make is there.
SHOW INDEXES YIELD name, state
RETURN name, state
