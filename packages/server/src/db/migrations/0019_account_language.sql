-- Issue 13, the console in English, French and Romanian: the language an account chose in the top
-- bar, so it follows the account to any browser. NULL: it chose none, the browser's language holds.
ALTER TABLE accounts ADD COLUMN language text CHECK (language IN ('en', 'fr', 'ro'));
