-- Each service owns a schema in the shop database and migrates it itself.
-- The schemas are created here too, so a read-only role could be granted later.
CREATE SCHEMA IF NOT EXISTS catalogue;
CREATE SCHEMA IF NOT EXISTS orders;
CREATE SCHEMA IF NOT EXISTS personalization;
CREATE SCHEMA IF NOT EXISTS admin;
