// The jest preset's setup for every test file: each app's inject answers are held to its OpenAPI
// document (openapi-checks.ts), and the hold is let go when the file is done.
import { checkInjectAnswers } from './openapi-checks';

const release = checkInjectAnswers();
afterAll(release);
