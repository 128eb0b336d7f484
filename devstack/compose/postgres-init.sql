-- One database per service; no service reads another's tables.
CREATE DATABASE team;
CREATE DATABASE mailbox;
CREATE DATABASE taskboard;
CREATE DATABASE scheduler;
