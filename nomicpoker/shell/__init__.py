"""The imperative shell: the store, replay, deadlines, the outbox, the poll run, tables, audit,
secrets and paths. Only the shell (and the adapters it drives) touches the disk, the network
or the clock.
"""
