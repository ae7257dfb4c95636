"""Voice at the table: WebRTC signalling relayed between a table's human seats."""
