"""`tdd-sandbox bench`: models x katas x languages x repeats, scored by hidden acceptance tests.

A pipeline of small steps: plan the jobs (and a shard of them), run each job in its own repo
(resuming finished ones), score it against the kata's acceptance suite, then write reports.
"""
