"""Homework inside a learning-management system: an exercise set as a question bank that Moodle or Canvas imports,
with irlab's diagnosis of named mistakes as the feedback a student sees on submitting.

:mod:`.bank` is the format-neutral bank (questions, answers with their credit and feedback, the worked solution);
:mod:`.moodle`, :mod:`.gift` and :mod:`.qti` write it in Moodle XML, GIFT and Canvas's QTI 1.2; :mod:`.responses`
reads the LMS's own response exports back for ``irlab grade``.
"""
