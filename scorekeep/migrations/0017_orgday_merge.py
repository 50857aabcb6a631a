"""Joins the two migrations of issue 31's branches (org-reg's member number, org-results' paper list), both made
after 0016, so the migration graph has one leaf again. No operations."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeep", "0017_org_reg_member_number"),
        ("scorekeep", "0017_org_results_paper"),
    ]

    operations: list[migrations.operations.base.Operation] = []
