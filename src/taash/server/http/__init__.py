"""What stands in front of every route: the guards (text, body size and time, rates per
address), the deadline on a request's head, the log lines and the OpenAPI schema as the server
really answers."""
