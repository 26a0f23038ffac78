"""The REST API (Django REST framework) over the services; schema at /api/schema/."""
